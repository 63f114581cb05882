// swift-tools-version: 5.9
import PackageDescription

let package = Package(
    name: "Inkwell",
    products: [.library(name: "Inkwell", targets: ["Inkwell"])],
    targets: [
        .target(name: "Inkwell"),
        .executableTarget(name: "inkwell-cli", dependencies: ["Inkwell"]),
        .testTarget(name: "InkwellTests", dependencies: ["Inkwell"]),
    ]
)
