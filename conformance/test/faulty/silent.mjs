// Faulty driver: starts, says so on stderr, and never answers anything, not even initialize (a dead driver).
process.stderr.write("silent: started, answering nothing\n");
process.stdin.resume();
