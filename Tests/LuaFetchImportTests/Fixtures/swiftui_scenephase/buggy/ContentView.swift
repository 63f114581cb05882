import SwiftUI

struct ContentView: View {
    @State private var text = ""

    var body: some View {
        NavigationStack {
            VStack(alignment: .leading, spacing: 12) {
                TextEditor(text: $text)
                    .frame(minHeight: 200)
                Button("Save draft") {
                    DraftCache.save(text)
                    text = ""
                }
                .disabled(text.isEmpty)
            }
            .padding()
            .navigationTitle("Notes")
        }
    }
}
