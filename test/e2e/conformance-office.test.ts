import { conformanceSuite } from '../conformance/suite.js';

conformanceSuite('office', 'LibreOffice (VCL)');
