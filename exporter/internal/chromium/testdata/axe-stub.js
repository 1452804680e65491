// A stand-in for axe.min.js: it defines axe.run and reports one fixed
// violation that echoes what the page saw, so the tests can check the
// injection, the options, the emulation and the decoding without axe-core.
// It counts how often it was injected into the page.
window.stubInjections = (window.stubInjections || 0) + 1;
window.axe = {
  run: async (context, options) => ({
    violations: [{
      id: "stub-rule",
      impact: "serious",
      description: "dark=" + matchMedia("(prefers-color-scheme: dark)").matches + " width=" + innerWidth + " injections=" + window.stubInjections,
      help: "Stub help",
      helpUrl: "https://example.invalid/stub-rule",
      tags: options.runOnly ? options.runOnly.values : [],
      nodes: [
        { target: ["#x"], html: document.querySelector("#x").outerHTML, failureSummary: "Fix any of the following:\n  the stub" },
        { target: [["iframe", "#y"]], html: "<b id=\"y\">", failureSummary: "" },
      ],
    }],
    passes: [{ id: "not-a-violation" }],
  }),
};
