// A seam for the fault drills (test/fault-drills.test.ts): a build started with BUILD_KILL_AT=<point> sends
// itself SIGKILL at that point, as abruptly as a power cut. The steps of a publish take microseconds, too
// short for a kill from outside to land between two of them; the stages are long enough for that, so the
// drills kill those from outside. Unset, this does nothing.
export function killPoint(point: string): void {
  if (process.env.BUILD_KILL_AT === point) process.kill(process.pid, 'SIGKILL');
}
