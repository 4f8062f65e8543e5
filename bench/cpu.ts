/**
 * CPU time as the kernel counts it (Linux /proc): what a load costs the server processes and PostgreSQL, whatever else
 * the shared machine runs meanwhile. The load generator (autocannon, in the bench's own process) is not counted.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Clock ticks per second of /proc's counters. */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), or null once the process is gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** User and system CPU a process has used so far, in ms (its own, not its children's). */
export function cpuMsOf(pid: number): number | null {
  const fields = statFields(pid);
  // After the name: state, ppid, … ; utime and stime are the 12th and 13th.
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND : null;
}

/**
 * The CPU time a process's threads have run so far, in ns (the scheduler's own count, /proc/<pid>/task/<tid>/schedstat),
 * or null once it is gone: fine enough to meter a load of a fraction of a second, where /proc's ticks are 10 ms.
 */
export function cpuNsOf(pid: number): number | null {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => {
      try {
        return sum + Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        return sum;
      }
    }, 0);
  } catch {
    return null;
  }
}

/** A PostgreSQL cluster's processes: the postmaster (first line of its postmaster.pid) and every process it started. */
export function clusterProcesses(dataDir: string): number[] {
  let postmaster: number;
  try {
    postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return [];
  }
  const children = fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => Number(statFields(pid)?.[1]) === postmaster);
  return [postmaster, ...children];
}

/**
 * Measures the CPU time `processes()` use from `start()` to `stop()`, in ms: each process's time at stop less its time
 * at start (0 for one started meanwhile, such as a new PostgreSQL backend).
 */
export function cpuMeter(processes: () => number[]) {
  let before = new Map<number, number>();
  return {
    start() {
      before = new Map(processes().flatMap((pid) => [[pid, cpuMsOf(pid) ?? 0] as const]));
    },
    stop(): number {
      return processes().reduce((sum, pid) => sum + Math.max(0, (cpuMsOf(pid) ?? 0) - (before.get(pid) ?? 0)), 0);
    },
  };
}
