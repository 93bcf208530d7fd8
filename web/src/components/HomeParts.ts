/** The calculator and the state's tools: one chunk, loaded only by the pages that show the calculator. */
export { Calculator } from './Calculator.js';
export { StateExtras, GuideTool } from './StateExtras.js';
export { RatesTimeline } from './RatesTimeline.js';
