// Page shapes a new user met in a web admin (a form laid out as a table: test/helpers/web-shapes6-suite.ts says
// which), in firefox; another file runs the same tests on the other browser, so the two can run in parallel.
import { webShapes6Suite } from '../helpers/web-shapes6-suite.js';

webShapes6Suite('firefox-esr');
