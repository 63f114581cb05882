// On disk, but in no build phase: not part of any target.
let leftoverValue = 1
