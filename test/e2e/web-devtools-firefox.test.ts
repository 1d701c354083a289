// Typing into firefox's page fields behind another window, through its debugging connection (one browser per
// file; the other browser's file runs the same tests).
import { devtoolsTypingSuite } from '../helpers/devtools-typing-suite.js';

devtoolsTypingSuite('firefox');
