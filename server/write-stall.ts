import type { Socket } from "node:net";
import type { Request, Response } from "express";

/**
 * Ends the connection of an answer that holds a slot and makes no write progress for `stallMs`:
 * bytes wait in its socket and neither drained nor shrank since, and the kernel took none of them
 * (a client that never reads what it asked for, ADR 321 second amendment; Node need not flag a
 * drain for them). An answer sent as one large write stays whole in the socket's buffer until its
 * last byte is out, so the progress of the write under way is read from libuv's queue
 * (`writeQueueSize`, which shrinks as the kernel takes bytes): a slow reader that keeps reading is
 * never cut. An answer still being worked on has nothing waiting: it is never cut either.
 */
export function watchWrites(req: Request, res: Response, stallMs: number) {
  let pending = -1;
  let queued = -1;
  let drained = false;
  let since = Date.now();
  const onDrain = () => {
    drained = true;
  };
  const socket = req.socket;
  socket.on("drain", onDrain);
  const timer = setInterval(
    () => {
      const bytes = socket.writableLength;
      const inKernelQueue = writeQueueSize(socket);
      if (
        bytes === 0 ||
        drained ||
        bytes < pending ||
        inKernelQueue < queued ||
        res.socket !== socket
      ) {
        since = Date.now();
      } else if (Date.now() - since >= stallMs) {
        socket.destroy();
      }
      drained = false;
      pending = bytes;
      queued = inKernelQueue;
    },
    Math.max(10, Math.floor(stallMs / 5)),
  );
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      socket.off("drain", onDrain);
    },
  };
}

/** Bytes of the write under way that libuv still has to hand the kernel (-1 when unknown). */
function writeQueueSize(socket: Socket): number {
  const handle = (socket as Socket & { _handle?: { writeQueueSize?: unknown } })._handle;
  return typeof handle?.writeQueueSize === "number" ? handle.writeQueueSize : -1;
}
