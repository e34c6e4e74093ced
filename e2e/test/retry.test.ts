// retry.ts: backoff bounds, retry until success or a non-transient error, timeouts, and error classification.
import { describe, expect, it } from "vitest";
import {
  CallTimeoutError,
  backoffDelay,
  connectionCodeOf,
  isTransientError,
  withRetry,
  withTimeout,
} from "../providers/retry.ts";
import { ProviderError } from "../providers/types.ts";

describe("retry", () => {
  it("backoff doubles with equal jitter, capped", () => {
    expect(backoffDelay(0, 100, 10_000, () => 0)).toBe(50);
    expect(backoffDelay(0, 100, 10_000, () => 1)).toBe(100);
    expect(backoffDelay(3, 100, 10_000, () => 0.5)).toBe(600);
    expect(backoffDelay(20, 100, 1000, () => 1)).toBe(1000);
  });

  it("retries transient failures and records the attempts", async () => {
    let n = 0;
    const retried: number[] = [];
    const r = await withRetry(
      async () => {
        if (++n < 3) throw Object.assign(new Error("busy"), { status_code: 429 });
        return "ok";
      },
      { retries: 5, baseMs: 1, maxMs: 2, isTransient: isTransientError, onRetry: (i) => retried.push(i.attempt) },
    );
    expect(r).toEqual({ value: "ok", attempts: 3 });
    expect(retried).toEqual([1, 2]);
  });

  it("stops at a non-transient error, and when retries run out", async () => {
    let n = 0;
    const bad = new ProviderError("no", false);
    await expect(
      withRetry(async () => (n++, Promise.reject(bad)), {
        retries: 5,
        baseMs: 1,
        maxMs: 1,
        isTransient: isTransientError,
      }),
    ).rejects.toBe(bad);
    expect(n).toBe(1);
    n = 0;
    const busy = new ProviderError("busy", true);
    await expect(
      withRetry(async () => (n++, Promise.reject(busy)), {
        retries: 2,
        baseMs: 1,
        maxMs: 1,
        isTransient: isTransientError,
      }),
    ).rejects.toMatchObject({ attempts: 3 });
    expect(n).toBe(3);
  });

  it("times a call out even when it ignores its signal", async () => {
    await expect(withTimeout(() => new Promise(() => {}), 30)).rejects.toBeInstanceOf(CallTimeoutError);
    expect(await withTimeout(async () => 5, 1000)).toBe(5);
  });

  it("classifies errors", () => {
    expect(
      isTransientError(
        new TypeError("fetch failed", {
          cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
        }),
      ),
    ).toBe(true);
    expect(connectionCodeOf(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }))).toBe("ECONNREFUSED");
    expect(isTransientError(Object.assign(new Error("x"), { name: "ThrottlingException" }))).toBe(true);
    expect(isTransientError(Object.assign(new Error("x"), { $metadata: { httpStatusCode: 400 } }))).toBe(false);
    expect(isTransientError(Object.assign(new Error("x"), { name: "AbortError" }))).toBe(false);
    expect(isTransientError(new CallTimeoutError(5))).toBe(true);
    expect(isTransientError(Object.assign(new Error("getaddrinfo ENOTFOUND nohost"), { code: "ENOTFOUND" }))).toBe(
      false,
    );
  });
});
