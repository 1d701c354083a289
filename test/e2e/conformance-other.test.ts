import { conformanceSuite } from '../conformance/suite.js';

conformanceSuite('other', 'Java Swing, Tk and Motif');
