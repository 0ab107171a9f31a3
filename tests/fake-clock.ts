// Preloaded with `node --import ./tests/fake-clock.ts` by tests that run the real server in a child
// process at another moment (the morning digest at 07:45 on a Monday): with FAKE_NOW set to an
// ISO instant, `Date` starts there and runs on at the real pace. Without it nothing changes.
const target = process.env.FAKE_NOW ? Date.parse(process.env.FAKE_NOW) : Number.NaN;
if (!Number.isNaN(target)) {
  const RealDate = Date;
  const offset = target - RealDate.now();
  class FakeDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...(args as [string | number]));
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = FakeDate as DateConstructor;
}
