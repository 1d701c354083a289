// Page shapes a new user met first, in chromium (test/helpers/web-shapes-suite.ts); another file runs the same
// tests on the other browser, so the two can run in parallel.
import { webShapesSuite } from '../helpers/web-shapes-suite.js';

webShapesSuite('chromium');
