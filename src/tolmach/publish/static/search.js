// Pagefind's search box. The index of a language lies in several bundles under
// pagefind/ (one per chunk of its pages); the box loads pagefind/merge/pagefind.js,
// which searches them all and ranks the results together (see that file). Results are
// linked relative to the site's root, so the site works under any path and from a
// file server. The bundles start loading as the page opens, before the reader types: the
// first search over many bundles would otherwise wait for all of them to load.
window.addEventListener("DOMContentLoaded", function () {
  var box = document.getElementById("search");
  var site = new URL(box.dataset.site, window.location.href).pathname;
  var merge = new URL(box.dataset.merge, window.location.href).pathname;
  var bundles = box.dataset.bundles.split(" ").map(function (bundle) {
    return new URL(bundle, window.location.href).pathname;
  });
  import(merge + "pagefind.js").then(function (module) { module.warm(bundles, site); });
  new PagefindUI({
    element: "#search",
    bundlePath: merge,
    baseUrl: site,
    mergeIndex: bundles.map(function (bundle) {
      return { bundlePath: bundle, baseUrl: site };
    }),
    showSubResults: true,
    showImages: false,
  });
});
