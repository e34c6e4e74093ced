// The tripwire inside a run's own network namespace: the namespace has only `lo`, and every address is routed to
// it (`ip route add local default dev lo`), so whatever a harness tries to reach lands here instead of leaving the
// machine. It answers DNS queries REFUSED at once (so a lookup fails fast, never hangs) and accepts connections on
// the ports a client reaches out on (80, 443, 53), recording each attempt: the name looked up, the address and port
// connected to. Nothing is forwarded anywhere. Only used where the kit runs as root, in a fresh namespace.
import { createSocket } from "node:dgram";
import { createServer } from "node:net";

/** The name a DNS query asks about (first question), or undefined for a malformed packet. */
export function dnsQuestion(msg) {
  if (msg.length < 12) return undefined;
  const labels = [];
  let i = 12;
  while (i < msg.length && msg[i] !== 0) {
    const len = msg[i];
    if (len > 63 || i + 1 + len > msg.length) return undefined;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString("latin1"));
    i += 1 + len;
  }
  return i + 5 <= msg.length ? { name: labels.join("."), end: i + 5 } : undefined;
}

/** REFUSED for a query: its id and question, QR set, RCODE 5, no answer or additional records. */
export function refused(msg) {
  const q = dnsQuestion(msg);
  const out = Buffer.from(msg.subarray(0, q ? q.end : 12));
  out[2] = (out[2] | 0x80) & 0xf9; // QR=1, keep opcode and RD, AA/TC off
  out[3] = (out[3] & 0x70) | 0x05; // RA/Z kept, RCODE=REFUSED
  out.writeUInt16BE(q ? 1 : 0, 4);
  out.writeUInt32BE(0, 6);
  out.writeUInt16BE(0, 10);
  return out;
}

/** Start catching; `onAttempt({what, to})` for each. Resolves to close(). Ports in use are skipped, not fatal. */
export async function startTripwire(onAttempt) {
  const closers = [];
  const udp = createSocket("udp4");
  udp.on("message", (msg, rinfo) => {
    const q = dnsQuestion(msg);
    onAttempt({ what: "dns", to: q?.name ?? "(malformed query)" });
    udp.send(refused(msg), rinfo.port, rinfo.address);
  });
  await new Promise((resolve) => (udp.once("error", resolve), udp.bind(53, "0.0.0.0", resolve)));
  closers.push(() => udp.close());
  for (const port of [53, 80, 443]) {
    const server = createServer((sock) => {
      onAttempt({ what: "connect", to: `${sock.localAddress}:${sock.localPort}` });
      sock.destroy();
    });
    await new Promise((resolve) => (server.once("error", resolve), server.listen(port, "0.0.0.0", resolve)));
    closers.push(() => server.close());
  }
  return () => closers.forEach((c) => c());
}
