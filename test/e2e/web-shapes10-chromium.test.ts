// Page shapes a new user met in a chat app, a data table's pager and a settings page (a chat that loads older
// messages as it is scrolled up; words between a container's objects: test/helpers/web-shapes10-suite.ts says which),
// in chromium; another file runs the same tests on the other browser, so the two can run in parallel.
import { webShapes10Suite } from '../helpers/web-shapes10-suite.js';

webShapes10Suite('chromium');
