// The reference, as a module driver, that stops answering part-way: every skill/call after the fifth throws (as
// Copilot CLI sent no tool result for the 181st call of one conversation). compat-timing.test.ts times it.
import * as ref from "../../../reference/index.ts";

export const implementationInfo = ref.implementationInfo;

export async function createSession(config, options) {
  const s = await ref.createSession(config, options);
  let calls = 0;
  return {
    catalog: () => s.catalog(),
    call: (params, opts) => {
      if (++calls > 5) throw new Error(`the harness sent no tool result for call ${calls}`);
      return s.call(params, opts);
    },
    close: () => s.close(),
  };
}
