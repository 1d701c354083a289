// The terminal corpus, live (test/tui-corpus/programs.ts has the programs, keys and facts): dialog-menu dialog-yesno dialog-checklist whiptail-radiolist whiptail-yesno curses-panes.
import { corpusTests } from '../tui-corpus/suite.js';

corpusTests(['dialog-menu', 'dialog-yesno', 'dialog-checklist', 'whiptail-radiolist', 'whiptail-yesno', 'curses-panes']);
