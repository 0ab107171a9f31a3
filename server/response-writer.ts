import type { Writable } from "node:stream";

/** Bytes gathered at most before they are written without waiting for the end of the turn. */
export const COALESCE_BYTES = 64 * 1024;

/** An HTTP response, with the compression middleware's `flush` when it is in front. */
type Flushable = Writable & { flush?: () => void };

class WritableClosed extends Error {}

/**
 * Writes a response body as @react-router/node's `writeReadableStreamToWritable` does — in order,
 * waiting for `drain`, the stream cancelled and the response destroyed when either side fails or
 * the client goes — but gathers the chunks one turn of the event loop produces into one write and
 * one flush (ADR 303). React renders an admin page as ~30 chunks in one go and the API lists come
 * in ~15 parts: written and flushed one by one, each went through the compressor on its own
 * (a thread-pool round trip and a sync flush each) and cost 4–8 ms a page. Chunks that arrive in
 * later turns (a deferred loader's data, Server-Sent Events) are written at the end of their
 * own turn, so streaming keeps its latency; at most `limit` bytes wait (a source that produces a
 * large body synchronously, like the CSV export, is written in steps of about that size).
 */
export async function writeCoalesced(
  body: ReadableStream<Uint8Array>,
  res: Flushable,
  limit = COALESCE_BYTES,
): Promise<void> {
  const reader = body.getReader();
  let pending: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Immediate | null = null;
  let drained: Promise<void> | null = null;
  let onDrained: (() => void) | null = null;
  // Set once the response is closed or fails before the body is written to its end: the pending
  // read ends (the reader is cancelled) and a wait for `drain` ends. No `Promise.race` against a
  // promise that lives as long as the response: each race would leave a reaction on it holding
  // its read's chunk, so every byte written stayed in memory until the response ended (a slow
  // 12 MB download: ~4 MB held at once, the kernel's buffer's worth; ADR 321, fourth amendment).
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown) => {
    if (failure) return;
    failure = { error };
    reader.cancel().catch(() => {});
    onDrain();
  };
  const failed = () => {
    if (failure) throw failure.error;
  };
  const onClose = () => fail(new WritableClosed("response closed before the body was written"));
  const onError = (error: unknown) => fail(error);
  // One `drain` listener for the whole body: the compression middleware puts `drain` listeners
  // on its compressor, where `once` would leave one behind per wait (removed from `res` only).
  const onDrain = () => {
    drained = null;
    onDrained?.();
    onDrained = null;
  };
  res.once("close", onClose);
  res.once("error", onError);
  res.on("drain", onDrain);
  const writeOut = () => {
    if (timer) clearImmediate(timer); // (never the running immediate: `atTurnEnd` clears it first)
    timer = null;
    if (!size || res.destroyed) return;
    const chunk = pending.length === 1 ? pending[0] : Buffer.concat(pending, size);
    pending = [];
    size = 0;
    if (!res.write(chunk)) {
      drained ??= new Promise<void>((resolve) => {
        onDrained = resolve;
      });
    }
    res.flush?.();
  };
  const atTurnEnd = () => {
    timer = null;
    writeOut();
  };
  try {
    for (;;) {
      if (res.destroyed) throw new WritableClosed("response destroyed");
      const { done, value } = await reader.read();
      failed();
      if (done) break;
      pending.push(value);
      size += value.byteLength;
      if (size >= limit) writeOut();
      else timer ??= setImmediate(atTurnEnd);
      if (drained) {
        await drained;
        failed();
      }
    }
    writeOut();
    res.end();
  } catch (error) {
    if (timer) clearImmediate(timer);
    pending = [];
    reader.cancel(error instanceof WritableClosed ? undefined : error).catch(() => {});
    if (!res.destroyed) {
      res.once("error", () => {}); // the error is the caller's to handle (rethrown below)
      res.destroy(error instanceof Error ? error : undefined);
    }
    throw error;
  } finally {
    res.off("close", onClose);
    res.off("error", onError);
    res.off("drain", onDrain);
    reader.releaseLock();
  }
}
