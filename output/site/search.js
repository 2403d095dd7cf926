// Pagefind's search box. The index of a language lies in several bundles under
// pagefind/ (one per chunk of its pages): the first is opened, the others merged into
// it, and Pagefind ranks the results of all of them together. Results are linked
// relative to the site's root, so the site works under any path and from a file server.
window.addEventListener("DOMContentLoaded", function () {
  var box = document.getElementById("search");
  var site = new URL(box.dataset.site, window.location.href).pathname;
  var bundles = box.dataset.bundles.split(" ").map(function (bundle) {
    return new URL(bundle, window.location.href).pathname;
  });
  new PagefindUI({
    element: "#search",
    bundlePath: bundles[0],
    baseUrl: site,
    mergeIndex: bundles.slice(1).map(function (bundle) {
      return { bundlePath: bundle, baseUrl: site };
    }),
    showSubResults: true,
    showImages: false,
  });
});
