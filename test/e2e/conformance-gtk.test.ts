import { conformanceSuite } from '../conformance/suite.js';

conformanceSuite('gtk', 'GTK 2, 3 and 4 apps');
