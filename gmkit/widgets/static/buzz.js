// The phone's buzz (gmkit.widgets.buzz.Buzz): each time Python asks (a custom message
// {buzz: [ms, pause, ms...]}), the phone vibrates where the browser allows it (navigator.vibrate:
// Android's browsers once the page was touched; never an error where it is missing), and the
// page says how many it was asked for (data-gmkit-buzzed, for a test to read).

function buzz(pattern) {
  const done = document.body.dataset.gmkitBuzzed;
  document.body.dataset.gmkitBuzzed = String((Number(done) || 0) + 1);
  if (typeof navigator.vibrate === "function") {
    try {
      navigator.vibrate(pattern);
    } catch (_error) {
      // a browser that refuses it (no user gesture yet): nothing to do
    }
  }
}

export default {
  initialize({ model }) {
    const onMessage = (message) => {
      if (message && Array.isArray(message.buzz)) buzz(message.buzz);
    };
    model.on("msg:custom", onMessage);
    return () => model.off("msg:custom", onMessage);
  },
  render({ el }) {
    el.style.display = "none";
  },
};
