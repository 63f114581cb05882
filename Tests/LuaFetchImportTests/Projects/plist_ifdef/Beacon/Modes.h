// Included by Info.plist: a definition the preprocessor reads.
#define WANTS_PUSH 1
