// Pagefind's search box. The index lies in pagefind/ at the site's root; results are
// linked relative to that root, so the site works under any path and from a file server.
window.addEventListener("DOMContentLoaded", function () {
  var box = document.getElementById("search");
  var bundle = new URL(box.dataset.bundle, window.location.href);
  new PagefindUI({
    element: "#search",
    bundlePath: bundle.pathname,
    baseUrl: new URL("..", bundle).pathname,
    showSubResults: true,
    showImages: false,
  });
});
