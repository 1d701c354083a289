// Web content of chromium read and driven in the background through AT-SPI: one browser for this file (another
// file runs the same tests on the other browser, so the two can run in parallel).
import { webContentSuite } from '../helpers/web-content-suite.js';

webContentSuite('chromium');
