import type { AddressInfo } from "node:net";
import net from "node:net";
import express from "express";
import { afterEach, expect, it } from "vitest";
import { bodyGuard } from "../../server/guards.ts";

// A request body that stops arriving ends its connection after bodyIdleMs (it holds a request slot
// meanwhile, ADR 197); a complete body's request may then work as long as it needs.
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(bodyIdleMs: number, work: (done: () => void) => void) {
  const app = express();
  app.use(
    bodyGuard({ appUrl: "http://127.0.0.1", trustProxy: "", multipartCap: () => 1e6, bodyIdleMs }),
  );
  app.post("/form", async (_req, res) => {
    const body = res.locals.body as NodeJS.ReadableStream;
    let text = "";
    for await (const chunk of body) text += chunk;
    work(() => res.send(`ok ${text.length}`));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return (server.address() as AddressInfo).port;
}

function post(port: number, declared: number, first: string) {
  const socket = net.connect(port, "127.0.0.1");
  socket.write(
    `POST /form HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${declared}\r\n\r\n${first}`,
  );
  let answer = "";
  socket.on("data", (chunk) => {
    answer += chunk;
  });
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(answer)));
  return { socket, closed };
}

it("cuts off a body that stalls", async () => {
  const port = await start(150, (done) => done());
  const { closed } = post(port, 100, "name=Lang");
  expect(await closed).toBe("");
});

it("leaves a complete body's request without a time limit", async () => {
  let finish = () => {};
  const working = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let answerNow = () => {};
  const port = await start(150, (done) => {
    answerNow = done;
    finish();
  });
  const { socket, closed } = post(port, 9, "name=Lang");
  await working;
  // Three idle periods pass while the handler works; the connection stays open.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(socket.destroyed).toBe(false);
  answerNow();
  await new Promise<void>((resolve) => socket.once("data", () => resolve()));
  socket.end();
  expect(await closed).toContain("ok 9");
});
