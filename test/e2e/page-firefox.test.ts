import { pageSuite } from '../helpers/page-suite.js';

pageSuite('firefox');
