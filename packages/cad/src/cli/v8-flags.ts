import { setFlagsFromString } from 'node:v8';

/**
 * The command line is a short-lived process: V8's default interrupt budget (67,584 bytecode bytes run) sends every
 * warm function to TurboFan, whose compiles (on a second thread) cost more CPU than they save in a run of a few
 * hundred milliseconds — on the 2-core machine of bench/convert.bench.ts a cold floor-plan PDF took ~340 ms of CPU
 * with it and ~240 ms with a budget 15× larger (and ~240 ms with no TurboFan at all, which made the 10 MB drawing's
 * 3.5 s of CPU 5.6 s). With this budget only code that runs long (the reader's and flattening's loops on a big
 * drawing) is optimised: the 10 MB drawing's CPU stayed within noise. Set before any command runs; functions get the
 * budget when their feedback is allocated, at their first calls. Only this process: the server's kept workers run
 * long and keep V8's defaults.
 */
setFlagsFromString('--interrupt-budget=1000000');
