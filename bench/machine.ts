import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

// The ratios of one run swing with what else the VM's host runs: a run's own figures say how disturbed it was.
// /proc/stat's first line: the jiffies every CPU spent in user, nice, system, idle, iowait, irq, softirq, steal.

interface CpuTimes {
  total: number;
  steal: number;
}

function cpuTimes(): CpuTimes | undefined {
  let line: string | undefined;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  } catch {
    return undefined;
  }
  const jiffies = line!.trim().split(/\s+/).slice(1, 9).map(Number);
  return { total: jiffies.reduce((sum, n) => sum + n, 0), steal: jiffies[7] ?? 0 };
}

/** Load average now; call the returned function at the end for the share of CPU time the hypervisor took meanwhile (undefined without /proc). */
export function watchMachine(): { loadAtStart: number; stolenPercent: () => number | undefined } {
  const start = cpuTimes();
  return {
    loadAtStart: loadavg()[0]!,
    stolenPercent: () => {
      const end = cpuTimes();
      if (!start || !end || end.total === start.total) return undefined;
      return (100 * (end.steal - start.steal)) / (end.total - start.total);
    },
  };
}
