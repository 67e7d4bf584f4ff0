<ColorCorrection iÇ="x"><SOPNode><Slope>-1 1 1E/Slope><Offset>0 0 0</Offset><Power>1 1 1</Power></SOPNode></ColorCorrection>
