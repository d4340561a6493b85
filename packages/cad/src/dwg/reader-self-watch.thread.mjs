// The thread of reader-self-watch.mjs: samples the process's memory and the running job's deadline every 50 ms.
import { workerData } from 'node:worker_threads';

const state = new Int32Array(workerData.state);
setInterval(() => {
  const rssMb = process.memoryUsage.rss() / 1048576;
  const deadline = Atomics.load(state, 0);
  const why = rssMb > workerData.maxMb ? `memory ${Math.round(rssMb)} MB` : deadline && Date.now() / 1000 > deadline ? 'deadline' : '';
  if (!why) return;
  // straight to the file descriptor: the process is killed on the next line
  process._rawDebug(`${workerData.mark} ${why}`);
  process.kill(process.pid, 'SIGKILL');
}, 50);
