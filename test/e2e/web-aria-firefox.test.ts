// ARIA widgets a page builds from divs, in firefox (test/helpers/aria-widgets-suite.ts); another file runs the same tests on the
// other browser, so the two can run in parallel.
import { ariaWidgetsSuite } from '../helpers/aria-widgets-suite.js';

ariaWidgetsSuite('firefox-esr');
