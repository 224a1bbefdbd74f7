const t0 = Date.now();
let first = 0;
export default class {
  onBegin() { console.error(`TL onBegin ${Date.now() - t0}`); }
  onTestBegin(test: any, result: any) { if (first++ < 6) console.error(`TL testBegin ${Date.now() - t0} w${result.workerIndex} ${test.title}`); }
  onEnd() { console.error(`TL onEnd ${Date.now() - t0}`); }
}
