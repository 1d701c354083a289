// The terminal corpus, live (test/tui-corpus/programs.ts has the programs, keys and facts): vim-split nvim-split nano less man w3m sc hexedit.
import { corpusTests } from '../tui-corpus/suite.js';

corpusTests(['vim-split', 'nvim-split', 'nano', 'less', 'man', 'w3m', 'sc', 'hexedit']);
