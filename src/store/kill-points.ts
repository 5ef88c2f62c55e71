// A seam for the fault drills (test/fault-drills.test.ts): a process started with BUILD_KILL_AT=<point>
// sends itself SIGKILL at that point, as abruptly as a power cut. A kill sent from outside lands wherever
// the build has got to by then, which depends on the machine: from inside, the drills kill a build at the
// same step every time. Unset, this does nothing. The build's stages and the snapshot writer both have
// points, so it lives with the files they write.

export function killPoint(point: string): void {
  if (process.env.BUILD_KILL_AT === point) process.kill(process.pid, 'SIGKILL');
}
