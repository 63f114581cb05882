// The style and the scripts of the HTML pages (HTMLReport), as the files of `Page/` compiled into
// the binary (SwiftPM resources, `.embedInCode`): `page.css` (the run's page and the index
// pages), `page.js` (the run's page: lanes, details, event list) and `index.js` (the index pages'
// filters). Hand-written, no library; a test checks that both scripts parse (`node --check`) and
// run in headless Chromium without an error.

enum HTMLReportAssets {
    static let css = String(decoding: PackageResources.page_css, as: UTF8.self)
    static let script = String(decoding: PackageResources.page_js, as: UTF8.self)
    static let indexScript = String(decoding: PackageResources.index_js, as: UTF8.self)
}
