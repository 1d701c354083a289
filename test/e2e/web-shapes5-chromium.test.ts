// Page shapes a new user met (custom elements with shadow roots and more: test/helpers/web-shapes5-suite.ts says
// which), in chromium; another file runs the same tests on the other browser, so the two can run in parallel.
import { webShapes5Suite } from '../helpers/web-shapes5-suite.js';

webShapes5Suite('chromium');
