// A page's form fields and rich-text composer in firefox (test/helpers/web-forms-suite.ts); another file runs the same
// tests on the other browser, so the two can run in parallel.
import { webFormsSuite } from '../helpers/web-forms-suite.js';

webFormsSuite('firefox-esr');
