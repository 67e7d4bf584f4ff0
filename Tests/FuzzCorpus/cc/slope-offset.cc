<ColorCorrection id="a">
  <SOPNode><Slope>2 2 2</Slope><Offset>-0.5 0 0</Offset><Power>1 1 1</Power></SOPNode>
</ColorCorrection>
