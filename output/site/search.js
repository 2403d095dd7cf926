// Pagefind's search box. The index of a language lies in several bundles under
// pagefind/ (one per chunk of its pages); the box loads pagefind/merge/pagefind.js,
// which searches them all and ranks the results together (see that file). Results are
// linked relative to the site's root, so the site works under any path and from a
// file server.
window.addEventListener("DOMContentLoaded", function () {
  var box = document.getElementById("search");
  var site = new URL(box.dataset.site, window.location.href).pathname;
  var merge = new URL(box.dataset.merge, window.location.href).pathname;
  new PagefindUI({
    element: "#search",
    bundlePath: merge,
    baseUrl: site,
    mergeIndex: box.dataset.bundles.split(" ").map(function (bundle) {
      return { bundlePath: new URL(bundle, window.location.href).pathname, baseUrl: site };
    }),
    showSubResults: true,
    showImages: false,
  });
});
