// The Mac app's code.
let macMenus = "Menus"
