import { conformanceSuite } from '../conformance/suite.js';

conformanceSuite('web', 'Firefox (Gecko) and Chromium (Blink)');
