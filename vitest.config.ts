import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["{schemas,reference,conformance,e2e,scripts,test}/**/*.test.ts"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
