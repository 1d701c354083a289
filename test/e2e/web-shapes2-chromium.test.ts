// More page shapes a new user met, in chromium (test/helpers/web-shapes2-suite.ts); another file runs the same tests on
// the other browser, so the two can run in parallel.
import { webShapes2Suite } from '../helpers/web-shapes2-suite.js';

webShapes2Suite('chromium');
