// A driver fault: the implementation could not be reached or broke the protocol. The runner turns it
// into an `errored` case (never `failed`), blames the side at fault, and reopens the implementation.
export class DriverError extends Error {
  constructor(
    message: string,
    readonly blame: "implementation" | "kit",
    readonly stderr?: string,
  ) {
    super(message);
    this.name = "DriverError";
  }
}
