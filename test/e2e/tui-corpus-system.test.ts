// The terminal corpus, live (test/tui-corpus/programs.ts has the programs, keys and facts): htop top calcurse aptitude.
import { corpusTests } from '../tui-corpus/suite.js';

corpusTests(['htop', 'top', 'calcurse', 'aptitude']);
