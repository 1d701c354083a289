// Whether another X client holds the keyboard grab. A toolkit's open menu holds it (GTK's, Qt's), so every real key,
// whichever window is active, goes to that menu's app. X tells no client who holds a grab; a grab of this
// connection's own, tried on the root window, is refused while another holds one, and given back at once when it is
// had (CurrentTime both ways, so nothing else changes).
import type { X11Connection } from '../x11/index.js';

export async function keyboardGrabbedElsewhere(x: X11Connection): Promise<boolean> {
  const root = x.setup.screens[0]?.root;
  if (root === undefined) return false;
  const status = await x.grabKeyboard(root);
  if (status === 'Success') {
    await x.ungrabKeyboard();
    return false;
  }
  return status === 'AlreadyGrabbed' || status === 'Frozen';
}
