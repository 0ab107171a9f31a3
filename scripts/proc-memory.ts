// Linux /proc readings for the bench scripts: a process tree's memory (VmRSS sampled, VmHWM per
// process) and a process's CPU time, so a bench can count the whole machine (server + Litestream).
import { readdirSync, readFileSync } from "node:fs";

const read = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return ""; // the process has exited meanwhile
  }
};

/** A /proc/<pid>/status field in MB (VmRSS, VmHWM, RssAnon, RssFile ...); 0 once the process is gone. */
export function statusMb(pid: number, field: string): number {
  const line = read(`/proc/${pid}/status`)
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, "") ?? 0) / 1024;
}

/** The process and all its descendants. */
export function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`, { withFileTypes: true }).flatMap((task) =>
    read(`/proc/${pid}/task/${task.name}/children`).split(/\s+/).filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap((child) => processTree(child))];
}

const commandOf = (pid: number) => read(`/proc/${pid}/comm`).trim();

/** User + system CPU time of a process in ms (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = read(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export type TreePeak = {
  /** Highest sampled sum of VmRSS over the tree (what the machine held at one moment). */
  peakTotalMb: number;
  /** Each process's own peak (VmHWM) as last read while it ran, with its command name. */
  processes: { pid: number; command: string; peakMb: number }[];
};

/** Samples the tree's memory every intervalMs until stop(). */
export function watchTree(rootPid: number, intervalMs = 100) {
  let peakTotalMb = 0;
  const seen = new Map<number, { command: string; peakMb: number }>();
  const sample = () => {
    let total = 0;
    let pids: number[] = [];
    try {
      pids = processTree(rootPid);
    } catch {
      return; // the root has exited
    }
    for (const pid of pids) {
      total += statusMb(pid, "VmRSS");
      const peakMb = statusMb(pid, "VmHWM");
      if (peakMb > 0) seen.set(pid, { command: commandOf(pid), peakMb });
    }
    peakTotalMb = Math.max(peakTotalMb, total);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop(): TreePeak {
      clearInterval(timer);
      sample();
      const processes = [...seen].map(([pid, p]) => ({ pid, ...p }));
      return { peakTotalMb, processes };
    },
  };
}
