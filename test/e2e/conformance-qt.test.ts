import { conformanceSuite } from '../conformance/suite.js';

conformanceSuite('qt', 'Qt 5 and Qt 6 apps');
