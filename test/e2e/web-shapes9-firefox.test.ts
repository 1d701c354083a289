// Page shapes a new user met in a Jupyter notebook and a Sphinx documentation site (icon fonts; words around inline
// links: test/helpers/web-shapes9-suite.ts says which), in firefox; another file runs the same tests on the other
// browser, so the two can run in parallel.
import { webShapes9Suite } from '../helpers/web-shapes9-suite.js';

webShapes9Suite('firefox-esr');
