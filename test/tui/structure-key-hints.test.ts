import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEY_HINT_HEURISTIC } from '../../src/tui/structure/index.js';
import { structureOf } from './helpers.js';

test(`${KEY_HINT_HEURISTIC}: htop's function-key bar is a toolbar whose buttons carry their keys`, () => {
  const { all } = structureOf('htop');
  const bar = all.find((node) => node.role === 'toolbar' && node.heuristic === KEY_HINT_HEURISTIC);
  assert.ok(bar);
  assert.equal(bar.bounds?.y, 23);
  assert.deepEqual(
    bar.children!.map((button) => `${button.shortcut}=${button.name}`),
    ['F1=Help', 'F2=Setup', 'F3=Search', 'F4=Filter', 'F5=Tree', 'F6=SortBy', 'F7=Nice -', 'F8=Nice +', 'F9=Kill', 'F10=Quit'],
  );
});

test(`${KEY_HINT_HEURISTIC}: no toolbar where no key hints are`, () => {
  for (const name of ['top', 'vim', 'less', 'dialog-menu']) {
    assert.equal(structureOf(name).all.filter((node) => node.heuristic === KEY_HINT_HEURISTIC).length, 0, name);
  }
});

test(`${KEY_HINT_HEURISTIC}: mc's bar names function keys by number alone ("1Help ... 10Quit")`, () => {
  const bar = structureOf('mc').all.find((node) => node.role === 'toolbar' && node.heuristic === KEY_HINT_HEURISTIC);
  assert.ok(bar);
  assert.equal(bar.bounds?.y, 29);
  assert.deepEqual(
    bar.children!.map((button) => `${button.shortcut}=${button.name}`),
    ['F1=Help', 'F2=Menu', 'F3=View', 'F4=Edit', 'F5=Copy', 'F6=RenMov', 'F7=Mkdir', 'F8=Delete', 'F9=PullDn', 'F10=Quit'],
  );
  assert.deepEqual(bar.children![9]!.bounds, { x: 90, y: 29, w: 6, h: 1 });
  assert.equal(bar.from, 'alignment');
});

test(`${KEY_HINT_HEURISTIC}: a number run into the label before it ("9Pu~Dn10Quit", mc at 70 columns) is the next key when drawn as the numbers are`, () => {
  const bar = structureOf('mc-narrow').all.find((node) => node.role === 'toolbar' && node.heuristic === KEY_HINT_HEURISTIC);
  assert.ok(bar);
  assert.deepEqual(
    bar.children!.map((button) => `${button.shortcut}=${button.name}`),
    ['F1=Help', 'F2=Menu', 'F3=View', 'F4=Edit', 'F5=Copy', 'F6=Re~ov', 'F7=Mkdir', 'F8=De~te', 'F9=Pu~Dn', 'F10=Quit'],
  );
  assert.deepEqual(bar.children![9]!.bounds, { x: 63, y: 19, w: 6, h: 1 });
});

test(`${KEY_HINT_HEURISTIC}: nano's two rows of ^X hints, "^/ Go To Line" a hint of its own`, () => {
  const bars = structureOf('nano').all.filter((node) => node.role === 'toolbar' && node.heuristic === KEY_HINT_HEURISTIC);
  assert.deepEqual(
    bars.map((bar) => bar.children!.map((button) => `${button.shortcut}=${button.name}`)),
    [
      ['^G=Help', '^O=Write Out', '^W=Where Is', '^K=Cut', '^T=Execute', '^C=Location'],
      ['^X=Exit', '^R=Read File', '^\\=Replace', '^U=Paste', '^J=Justify', '^/=Go To Line'],
    ],
  );
});

test(`${KEY_HINT_HEURISTIC}: hints of a key, a blank or ": ", and a label (calcurse, aptitude) are buttons that press that key`, () => {
  const hints = (name: string) =>
    structureOf(name)
      .all.filter((node) => node.role === 'toolbar' && node.heuristic === KEY_HINT_HEURISTIC)
      .map((bar) => bar.children!.map((button) => `${button.shortcut}=${button.name}`));
  assert.deepEqual(hints('corpus/calcurse-start'), [
    ['?=Help', 's=Save', 'TAB=Chg Win', '^P=Prv View', 'j=Down', 'l=Right'],
    ['q=Quit', 'R=Reload', '^N=Nxt View', 'k=Up', 'h=Left', 'o=OtherCmd'],
  ]);
  assert.deepEqual(hints('corpus/aptitude-start'), [['C-T=Menu', '?=Help', 'q=Quit', 'u=Update', 'g=Preview/Download/Install/Remove Pkgs']]);
  // Prose and pages with columns of words are not hint rows.
  for (const name of ['corpus/man-start', 'corpus/less-start', 'corpus/w3m-start', 'corpus/ncdu-start', 'corpus/top-start', 'corpus/htop-start']) {
    assert.ok(hints(name).every((bar) => bar.every((hint) => !/^[a-z?]=/.test(hint))), `${name}: ${JSON.stringify(hints(name))}`);
  }
});

test(`${KEY_HINT_HEURISTIC}: numbered keys with gaps ("1Help 2Sort 10Quit") count when the labels stand out from their numbers`, () => {
  const bar = structureOf('corpus/curses-panes-start').all.find((node) => node.role === 'toolbar' && node.heuristic === KEY_HINT_HEURISTIC);
  assert.deepEqual(bar?.children?.map((button) => `${button.shortcut}=${button.name}`), ['F1=Help', 'F2=Sort', 'F10=Quit']);
});

test(`${KEY_HINT_HEURISTIC}: key:label hints one blank apart with labels of several words (newsboat's "q:Quit ENTER:Open n:Next Unread") are a bar`, () => {
  const { all } = structureOf('newsboat-articles');
  const bar = all.find((node) => node.role === 'toolbar' && node.heuristic === KEY_HINT_HEURISTIC);
  assert.ok(bar, 'a key-hint bar');
  assert.deepEqual(bar.children!.map((button) => [button.shortcut, button.name]), [
    ['q', 'Quit'], ['ENTER', 'Open'], ['s', 'Save'], ['r', 'Reload'], ['n', 'Next Unread'], ['A', 'Mark All Read'], ['/', 'Search'], ['?', 'Help'],
  ]);
});
