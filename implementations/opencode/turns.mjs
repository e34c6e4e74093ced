// Owns OpenCode's one-turn-at-a-time: an OpenCode session runs one agent turn at a time (its session loop
// refuses a message while it is busy), and each kit call is one turn of the scripted model. So the driver
// sends a session's turns one after another, in call order, as a user typing into one session would; the
// order of answers to concurrent calls is therefore not OpenCode's to show (`call.order` is declared
// unobserved). Calls still waiting when the session closes are refused at once.
export class TurnQueue {
  #tail = Promise.resolve();
  #closed = false;

  run(task) {
    const next = this.#tail.then(() => {
      if (this.#closed) throw new Error("session closed before this call ran");
      return task();
    });
    this.#tail = next.catch(() => {});
    return next;
  }

  close() {
    this.#closed = true;
    return this.#tail;
  }
}
