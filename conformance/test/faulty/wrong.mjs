// A driver that keeps the protocol but is a wrong implementation: every skill/call is not_found and the
// catalog is empty. Cases fail (not error) against it, and parity against the reference finds differences.
import { serve } from "./base.mjs";
serve();
