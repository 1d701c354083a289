// The terminal corpus, live (test/tui-corpus/programs.ts has the programs, keys and facts): mc ncdu ranger tig vifm.
import { corpusTests } from '../tui-corpus/suite.js';

corpusTests(['mc', 'ncdu', 'ranger', 'tig', 'vifm']);
