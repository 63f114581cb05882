import SwiftUI

// In the widget's folder, lent to the app by an exception set that names the app.
enum Palette {
    static let accent = Color.orange
}
